// The instants of fact version VERSION as ISO 8601 text, as entries of a map projection after `.*` (they replace the
// stored values): the driver's pure-Python temporal decoding was the largest cost of a read.
valid_from: toString(VERSION.valid_from), valid_to: toString(VERSION.valid_to),
known_from: toString(VERSION.known_from), known_to: toString(VERSION.known_to), verified_at: toString(VERSION.verified_at)
