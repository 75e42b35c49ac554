"""Settings: one typed object per command (the only reader of conf/), their validation, and a run's identity."""
