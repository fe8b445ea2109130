"""Placeholder AI (replaced below)."""
def choose_action(engine, state, seat, rng):
    return rng.choice(list(engine.legal_actions(state, seat)))
