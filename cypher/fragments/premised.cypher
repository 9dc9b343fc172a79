// Whether fact version VERSION rests on premises (a DEPENDS_ON edge from it, told by its degree, without walking
// them): only such a version needs its support at the read's point checked (services/truth/support.py).
COUNT { (VERSION)-[:DEPENDS_ON]->() } > 0
