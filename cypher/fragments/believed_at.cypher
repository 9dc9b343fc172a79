// Whether version VERSION is believed at known point POINT (a variable): known from then on and not closed by then.
// One coalesce, not `(known_to IS NULL OR known_to > POINT)`: the planner split that OR into a union of two index
// seeks that read every candidate version twice (a holders read's db hits 120 -> 70; bench/RESULTS.md, issue 9).
(VERSION.known_from <= POINT AND coalesce(VERSION.known_to > POINT, true))
