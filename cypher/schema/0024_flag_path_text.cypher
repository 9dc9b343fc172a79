// Migration 0024 (issue 25): a cascade flag's `path` (the fact ids from the root to the flagged version, on its
// FLAGGED edge) is stored as the text every reader shows, the ids joined by " -> ", instead of a list of ids: the
// flag write of a 10,000-dependent cascade sends and stores one string per edge, not a list of up to eight
// (graph/core/flags.py; the readers, graph/core/records.py `with_flag` and graph/truth/diff.py, show it as it is).
// This joins the lists of the edges written before, in batches. Idempotent; statements end with ';'.

MATCH ()-[g:FLAGGED]->() WHERE g.path IS NOT NULL AND NOT g.path IS :: STRING
CALL (g) {
  SET g.path = reduce(text = head(g.path), id IN tail(g.path) | text + ' -> ' + id)
} IN TRANSACTIONS OF 10000 ROWS;
