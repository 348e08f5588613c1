#pragma once
// SQL text shared by the statements of PgResponsesStore (compile-time string pieces): the
// columns every read returns, in the order PgResponsesStore reads them.

#include "common/pg/sql_text.h"

// `t`: the table's alias with its dot ("r."), or "".
#define RESPONSE_COLUMNS_OF(t)                                                          \
  t "uuid, " t "session_id, " t "link_uuid, " t "status, " t                            \
    "respondent_email, " MICROS(t "started_at") " AS started_micros, " MICROS(          \
        t "submitted_at") " AS submitted_micros, " t "answers, " t "workspace_uuid, " t \
                          "token_hash"
#define RESPONSE_COLUMNS RESPONSE_COLUMNS_OF("")
