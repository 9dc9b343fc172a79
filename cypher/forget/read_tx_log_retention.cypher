// The transaction-log retention setting in force on the server (how long forgotten content lingers in the logs).
// returns: value
SHOW SETTINGS YIELD name, value WHERE name = 'db.tx_log.rotation.retention_policy'
RETURN value
