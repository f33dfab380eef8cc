from slime.command import main

raise SystemExit(main())
