"""``python -m scorer`` is the ``mjscore`` command."""

from .cli.app import main

if __name__ == "__main__":
    main()
