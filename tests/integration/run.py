#!/usr/bin/env python3
"""Integration tests against a running stack (STACK_DIR, default .run): python3 run.py [-k SUBSTR]."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

# Dependency-failure tests stop and restart parts of the stack: they run last; then the sweep
# of everything the run wrote for secrets. Tests marked test_beside (a minute of paced calls)
# run in threads beside the modules before BESIDE_UNTIL, the first that stops or stalls part of
# the stack (test_responses pauses Redis writes).
MODULES = ["test_wire", "test_auth", "test_tokens", "test_links", "test_feedbackctl", "test_scripts", "test_docs",
           "test_admin", "test_intake", "test_question_types", "test_responses", "test_response_pages", "test_exports", "test_reports", "test_erasure", "test_link_cache",
           "test_rate_limits", "test_idempotency", "test_ai", "test_media", "test_media_reads", "test_long_recordings", "test_speech_server", "test_openapi", "test_webhooks", "test_webhook_backlog", "test_dashboard", "test_authorization", "test_abusive_clients", "test_rollout", "test_resilience", "test_secrets"]

BESIDE_UNTIL = "test_responses"

if __name__ == "__main__":
    only = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "-k" else None
    sys.exit(harness.run(MODULES, only, BESIDE_UNTIL))
