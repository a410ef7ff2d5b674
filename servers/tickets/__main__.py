from servers.core.cli import main
from servers.tickets import APP

main(APP)
