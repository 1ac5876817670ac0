from builders.cli import main

main()
