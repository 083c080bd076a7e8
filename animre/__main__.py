from animre.cli import main

raise SystemExit(main())
