"""The fixed-priority system tests, unchanged, on the offloaded scheduler with the device back
end (this folder's conftest.py: `boot` gives each configuration's device variant)."""

from api.test_sys_api import *
from fp.test_sys_fp import *
from rr.test_sys_rr import *
