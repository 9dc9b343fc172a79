// The effective lifecycle state of version VERSION at known point POINT (null = now): the state of the flag
// believed then, else the version's own state. Every read that filters or reports a state uses this.
coalesce((@flag_at(VERSION, POINT)).state, VERSION.state)
