from servers.core.cli import main
from servers.mail import APP

main(APP)
