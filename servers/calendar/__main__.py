from servers.calendar import APP
from servers.core.cli import main

main(APP)
