"""stich's gRPC service (package stich.v1): tables with seat tokens and bots, versioned
events, batch evaluation and simulation over the engine, persisted to embedded SQLite."""
