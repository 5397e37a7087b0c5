"""What the two Medici games share beside them (core knows none of it)."""
