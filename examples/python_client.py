#!/usr/bin/python3
"""A keydecided client in Python: the keydecide.client module (standard library only).

    python_client.py [--socket PATH] [--lang LANG] "see you tomo"

Types the text one character per request and prints, after each key, the composition and
the top candidates. keydecide.client is installed with the keydecide package; from the source
tree it is python/keydecide (found beside this file's folder when not installed).
"""

import argparse
import os
import sys

try:
    from keydecide.client import Client, KeydecideError, default_socket_path
except ImportError:  # the source tree
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    from keydecide.client import Client, KeydecideError, default_socket_path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=None, help="daemon socket (default: %s)" %
                        default_socket_path())
    parser.add_argument("--lang", default=None,
                        help="session language, e.g. zh (default: the daemon's first)")
    parser.add_argument("text")
    args = parser.parse_args()
    client = Client(args.socket)
    hello = client.hello()
    print("connected: %s protocol %d, scorer %s, languages %s" % (
        hello["server"], hello["protocol"], hello["scorer"],
        ",".join(hello.get("languages", [hello.get("language", "")]))))
    session = client.open_session(lang=args.lang)
    for ch in args.text:
        decision = client.key(session, ch)["decision"]
        words = "|".join(c["text"] for c in decision["candidates"])
        print("[%s] %s (%s)" % (decision["composition"], words, decision["tier"]))
    try:
        client.key(session, "x", k=99)
        print("error: k=99 was accepted", file=sys.stderr)
        return 1
    except KeydecideError as e:
        print("refused as expected: %s" % e.code)
    client.close_session(session)
    client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
