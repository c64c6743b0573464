import sys

from gnomekit.cli import main

sys.exit(main())
