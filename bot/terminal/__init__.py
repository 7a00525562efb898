"""The terminal front end: ``dispatch sandbox``, two local players, no Discord needed."""
