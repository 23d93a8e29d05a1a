import sys

from ruleproof.entry import run

sys.exit(run())
