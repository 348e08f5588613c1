-- Raised by every change; gateways cache link documents by it (common/link_versions.h).
ALTER TABLE links ADD COLUMN version bigint NOT NULL DEFAULT 1;
