import sys

from ruleproof.cli import main

sys.exit(main())
