// Every index or constraint-backed index with its label and properties.
// returns: label, properties
SHOW INDEXES YIELD labelsOrTypes, properties
WHERE labelsOrTypes IS NOT NULL AND properties IS NOT NULL
RETURN labelsOrTypes[0] AS label, properties
