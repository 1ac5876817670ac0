"""pronouns.v1: ContraPro-style contrastive sets for EN "it" -> DE er/sie/es (Müller et al. 2018)."""
