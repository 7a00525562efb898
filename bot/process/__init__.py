"""How a long-running Dispatch process lives and ends: a clean stop on SIGTERM
(``lifecycle``) and a sign of life for container healthchecks (``health``)."""
