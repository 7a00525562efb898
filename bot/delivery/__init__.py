"""Delivery: the front-end port, what the players are told after a change, the outbox that
keeps it across crashes, the courier that hands it to the front end, and reminders."""
