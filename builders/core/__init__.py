"""The spine every builder shares: config, registry, schema checks, atomic writing, manifests."""
