-- on_finished.webhook_url / webhook_secret of a link, kept until the webhooks service takes
-- them over. The secret is sealed (AES-256-GCM, common/secret_box.h), never stored in clear.
ALTER TABLE links ADD COLUMN on_finished_webhook_url text;
ALTER TABLE links ADD COLUMN on_finished_webhook_secret_sealed text;
