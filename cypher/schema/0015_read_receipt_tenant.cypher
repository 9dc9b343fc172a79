// Migration 0015: read receipts are found by their tenant (issue 24 §6). Forgetting removes the question text of every
// receipt of the tenant whose question holds forgotten words, and verify_forgotten checks them: without this index
// both read every tenant's receipts (and served_to(task) did too). Idempotent; statements end with ';'.

CREATE INDEX read_receipt_tenant IF NOT EXISTS FOR (n:ReadReceipt) ON (n.tenant);
