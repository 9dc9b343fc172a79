// Migration 0018's data step: the labels per-tenant search partitions (migrations 0006, 0011, 0013) left on fact
// versions: a partition's own (SearchS_<n>, SearchT_<digest>) and the old global full-text index's (FactText);
// ops/migrate_search.py checks every name against its pattern before it is used.
// returns: labels
CALL db.labels() YIELD label
WITH label WHERE label STARTS WITH 'SearchS_' OR label STARTS WITH 'SearchT_' OR label = 'FactText'
RETURN collect(label) AS labels
