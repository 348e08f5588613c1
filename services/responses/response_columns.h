#pragma once
// SQL text shared by the statements of PgResponsesStore (compile-time string pieces): how
// times cross as microseconds since the epoch, and the columns every read returns, in the
// order PgResponsesStore reads them.

#define MICROS(column) "(extract(epoch FROM " column ") * 1000000)::bigint"
#define FROM_MICROS_BEFORE "('epoch'::timestamptz + ("
#define FROM_MICROS_AFTER ")::bigint * interval '1 microsecond')"
#define FROM_MICROS(param) FROM_MICROS_BEFORE param FROM_MICROS_AFTER
// `t`: the table's alias with its dot ("r."), or "".
#define RESPONSE_COLUMNS_OF(t)                                                          \
  t "uuid, " t "session_id, " t "link_uuid, " t "status, " t                            \
    "respondent_email, " MICROS(t "started_at") " AS started_micros, " MICROS(          \
        t "submitted_at") " AS submitted_micros, " t "answers, " t "workspace_uuid, " t \
                          "token_hash"
#define RESPONSE_COLUMNS RESPONSE_COLUMNS_OF("")
