from servers.core.cli import main
from servers.docs import APP

main(APP)
