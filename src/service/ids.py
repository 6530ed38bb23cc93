"""The shapes of the ids the service hands out and accepts: table ids, invite codes and
request ids. Kept apart so that the metrics (observe.py) can tell a table id without importing
the tables."""
from __future__ import annotations

import re

TABLE_ID = re.compile(r"^t_[A-Za-z0-9_\-]{1,40}$")
INVITE = re.compile(r"^iv_[A-Za-z0-9_\-]{20,40}\.t_[A-Za-z0-9_\-]{1,40}$")
REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,64}$")
