// One API key by its public id (any tenant: the key says which tenant it acts in).
// $key_id      public id of the key
// returns: key (map projection), or no row
MATCH (k:ApiKey {key_id: $key_id})
RETURN k {.*} AS key
