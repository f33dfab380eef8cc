from slime.cli import main

raise SystemExit(main())
