"""Large buffers go back to the system when freed (issue 20: bounded memory under abuse).

glibc's ``malloc`` serves a request of at least its *mmap threshold* with a
mapping of its own, returned to the system on ``free``; smaller ones come from
its heaps, which keep freed memory for reuse. The threshold starts at 128 KiB
but rises to the size of any mapped block that is freed (up to 32 MiB), so
after the first request body of a few MiB is freed, later bodies, gzip outputs
and JSON texts of that size stay in the heaps and the server grows with every
burst of large requests: 4 clients looping 1 GiB gzip bombs (refused at 4 MiB)
left it 10-27 MiB larger. ``mallopt(M_MMAP_THRESHOLD)`` fixes the threshold, which
also turns the rise off: with the bombs inflated one at a time
(``server.http_body``) and a 2 MiB threshold, the same bombs left it 7-15 MiB
larger. 2 MiB, not less: the 4 MiB outputs and large JSON bodies are mapped,
but a 1 MB body and the blocks of an inflating one are not. At 256 KiB those
were mapped and unmapped each time, and a bomb took ~20 ms longer to refuse on
a busy machine (median 64 ms against 38 ms); at 1 MiB the 1 MB bodies were,
and it took ~10 ms longer; at 2 MiB it is as fast as without (side by side,
medians 55 and 22 ms against 66 and 20 ms).

Only glibc has ``mallopt``; elsewhere this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger("route18xx.server")

#: glibc's ``M_MMAP_THRESHOLD`` parameter of ``mallopt``.
M_MMAP_THRESHOLD = -3
#: Buffers of this size or more are mappings of their own, returned when freed.
MMAP_THRESHOLD_BYTES = 2 * 1024 * 1024


def return_large_buffers(threshold: int = MMAP_THRESHOLD_BYTES) -> bool:
    """Fix glibc's mmap threshold at ``threshold`` bytes; False where there is no glibc."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    done = bool(mallopt(M_MMAP_THRESHOLD, threshold))
    if not done:
        log.warning("mallopt(M_MMAP_THRESHOLD, %d) refused", threshold)
    return done
