"""The driver layer and what every repository shares: the database handle and its transactions, records into models,
fact versions, flags, the commit clock and the ledger's append, write-side clearance reads, sealed-content keys."""
