-- Days a workspace keeps its responses (docs/api.md "Erasure and retention"); NULL: until
-- deleted. The responses service's retention task reads it (services/responses/erasure/).
ALTER TABLE workspaces ADD COLUMN retention_days integer
  CHECK (retention_days BETWEEN 1 AND 36500);
