-- Answers whose insights a model server is to fill (AI_EVALUATOR=openai), queued in the
-- transaction that saved them, so that none is lost and no request waits for a model. The
-- responses services' insight workers claim them (FOR UPDATE SKIP LOCKED); a claim leases a
-- job by moving due_at past the model call's deadline, so one whose worker died comes due
-- again for another.
CREATE TABLE insight_jobs (
  id bigserial PRIMARY KEY,
  workspace_uuid uuid NOT NULL,
  response_uuid uuid NOT NULL,
  answer_uuid uuid NOT NULL,
  question text NOT NULL,
  custom_fields text NOT NULL,
  text text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  due_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE INDEX insight_jobs_due ON insight_jobs (due_at, id);
-- A newer job for the same answer replaces an older one (its text is gone).
CREATE INDEX insight_jobs_of_answer ON insight_jobs (answer_uuid);
