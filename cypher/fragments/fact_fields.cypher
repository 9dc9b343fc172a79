// The stored properties of fact version VERSION as a read serves them, as the entries of a map projection
// (`VERSION {@fact_fields(VERSION, POINT), ...}`): every property but the embedding (a reader never needs its
// floats, and the driver would decode them) and the state flag believed at known point POINT (null = believed now).
.*, embedding: null, flag: @flag_at(VERSION, POINT)
