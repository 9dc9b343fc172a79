// Migration 0021: verification beyond the quote gate (issue 27). A :Verification (a recorded verdict, linked from a
// fact version by VERIFIED_BY) has a unique id and is found by (tenant, version_id); a :ReviewItem (the human review
// queue) has a unique id and the pending ones are listed by (tenant, state, requested_at). Each statement is
// idempotent (IF NOT EXISTS); statements are separated by a line ending in ';'.

CREATE CONSTRAINT verification_id IF NOT EXISTS FOR (v:Verification) REQUIRE v.verification_id IS UNIQUE;
CREATE INDEX verification_version IF NOT EXISTS FOR (v:Verification) ON (v.tenant, v.version_id);
CREATE CONSTRAINT review_item_id IF NOT EXISTS FOR (r:ReviewItem) REQUIRE r.item_id IS UNIQUE;
CREATE INDEX review_item_state IF NOT EXISTS FOR (r:ReviewItem) ON (r.tenant, r.state, r.requested_at);
CREATE INDEX review_item_version IF NOT EXISTS FOR (r:ReviewItem) ON (r.tenant, r.version_id);
