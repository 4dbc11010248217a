"""`python tools/nbgrader_cli.py ARGS` is `nbgrader ARGS`, about 1.5 s faster to start.

jsonschema imports the optional package rfc3987_syntax when it is installed, and that import
builds a Lark grammar (about 1.5 s here). It serves only the "iri" string formats of JSON schemas;
nbgrader validates notebooks with nbformat's schema, which uses no such format, and validation of
everything else is unchanged. So the import is blocked in nbgrader's own processes, nowhere else.
"""

import sys

sys.modules.setdefault("rfc3987_syntax", None)  # makes `import rfc3987_syntax` raise ImportError

from nbgrader.apps.nbgraderapp import main  # noqa: E402

if __name__ == "__main__":
    sys.argv[0] = "nbgrader"
    main()
