"""variations.v1: DEL / INS / SUBNUM / SUBGEN minimal pairs and the volatility analysis (Fadaee & Monz 2020)."""
