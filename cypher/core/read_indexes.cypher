// Every index with its type and population state.
// returns: name, type, state, population
SHOW INDEXES YIELD name, type, state, populationPercent
RETURN name, type, state, populationPercent AS population
ORDER BY name
