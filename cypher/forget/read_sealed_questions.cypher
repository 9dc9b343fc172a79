// The tenant's read receipts whose question is sealed (crypto-erasure mode): forgetting opens them in Python (Tx.rows)
// to find the questions holding forgotten words, which a Cypher comparison cannot see in a ciphertext.
// $tenant  tenant id
// returns: receipt_id, query (its envelope; opened by Tx.rows, or the destroyed-key text)
MATCH (r:ReadReceipt)
WHERE r.tenant = $tenant AND r.query STARTS WITH 'enc1:'
RETURN r.receipt_id AS receipt_id, r.query AS query
