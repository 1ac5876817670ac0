"""``shuffles.v1``: incongruent image pairings (seeded derangements by content) for image-awareness tests."""
