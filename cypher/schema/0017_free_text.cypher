// Migration 0017: forgetting reaches free text (issue 24 review). One full-text index over every property where a
// person's words about an act can sit — reasons, causes, claimed actors, task labels, ledger details, tombstones'
// reasons, forget jobs' reports — so forgetting finds (and verify_forgotten checks) the ones naming forgotten content
// with one index query per probe instead of a pass over the tenant's ledger (services/forget_rules.py FREE_TEXT says
// which label has which). It also indexes `tenant`, so each query carries its tenant as a required clause.
// Summaries whose text forgetting removed before topics went with it lose their topic now (a topic is by default
// the text's first line). Each statement is idempotent; statements end with ';'.

CREATE FULLTEXT INDEX free_text IF NOT EXISTS
FOR (n:AuditEvent|Fact|StateChange|Summary|Entity|Source|ForgetJob|ForgetProbe|ReadReceipt)
ON EACH [n.reason, n.detail, n.on_behalf_of, n.end_reason, n.lapse_reason, n.stale_cause, n.causes, n.actor,
         n.forgotten_reason, n.forgotten_on_behalf_of, n.content_removed_reason, n.content_removed_on_behalf_of,
         n.query_removed_reason, n.query_removed_on_behalf_of, n.report, n.task, n.tenant];
MATCH (m:Summary)
WHERE m.text = '[content removed: an input was forgotten]' AND m.topic <> '[topic removed: an input was forgotten]'
SET m.topic = '[topic removed: an input was forgotten]';
CALL db.awaitIndexes(600);
