"""keydecide for Python: the engine in this process (keydecide.native, over libkeydecide.so.1's
C ABI) and the daemon's protocol (keydecide.client, standard library only).

    import keydecide
    with keydecide.Engine() as engine:
        print(engine.session().type("see you tomo").candidates[0].text)   # tomorrow
"""

from keydecide.native import (Candidate, Decision, Engine, KeydecideError, Session,
                              library)

__all__ = ["Candidate", "Decision", "Engine", "KeydecideError", "Session", "library"]
