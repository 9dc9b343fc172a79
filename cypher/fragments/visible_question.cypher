// Whether the question of read receipt VERSION may be shown to a caller cleared for the labels POINT: the caller may
// see what the asker could (the receipt records the asker's clearance: 'public' ... 'secret', or 'all'), since a
// question may name what only its asker may see. A receipt recorded before askers were recorded counts as asked
// with clearance all. Its task, operation, times and the served versions the caller may see are shown regardless.
('*' IN POINT OR coalesce(VERSION.clearance, 'all') IN POINT)
