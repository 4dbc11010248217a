"""The course's grading secret: hidden tests draw their inputs from it (``mlcourse.grading.hidden_rng``)."""

import os
import time
from pathlib import Path

SECRET_FILE = ".grading-secret"


def grading_secret(root: Path) -> bytes:
    """The course's grading secret, from which every hidden test's inputs are drawn (with the lecture,
    the student and the test: ``mlcourse.grading.hidden_rng``).

    ``MLCOURSE_GRADING_SECRET`` if set (several graders on several machines must share it), else the
    file ``.grading-secret`` of the course folder, made on first use: root's alone, outside git, the
    kernel and the students' copy. Keep it for the term: a new secret draws new hidden inputs, so a
    regrade could change marks."""
    if os.environ.get("MLCOURSE_GRADING_SECRET"):
        return os.environ["MLCOURSE_GRADING_SECRET"].encode()
    path = root / SECRET_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(os.urandom(32).hex() + "\n")
    if path.is_symlink() or not path.is_file():
        raise RuntimeError(f"{path} must be a plain file (the grading secret)")
    secret = path.read_text().strip()
    if len(secret) < 32:  # read while another grader was still writing it
        time.sleep(0.2)
        secret = path.read_text().strip()
    if len(secret) < 32:
        raise RuntimeError(f"{path} holds no grading secret (64 hex digits): delete it to make a new one")
    return secret.encode()
