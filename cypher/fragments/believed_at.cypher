// Whether VERSION (a version, or an edge with a known interval) is believed at known point POINT (a variable or
// $parameter, never null: a null point believes nothing): known from then on and not closed by then. One
// coalesce, not `(known_to IS NULL OR known_to > POINT)`: the planner split that OR into a union of two index seeks
// that read every candidate version twice (a holders read's db hits 120 -> 70; bench/RESULTS.md, issue 9). A
// known_to that is not an instant (a bad write) is never open: the comparison is null, so `known_to IS NULL`
// decides, as the OR did.
(VERSION.known_from <= POINT AND coalesce(VERSION.known_to > POINT, VERSION.known_to IS NULL))
