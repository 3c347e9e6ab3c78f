package io.idem.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code idem} command line. {@code --help} and {@code --version} work on every command (they
 * are inherited), and {@code idem help [command]} prints the same help.
 */
@Command(
        name = "idem",
        mixinStandardHelpOptions = true,
        scope = CommandLine.ScopeType.INHERIT,
        version = "idem 0.2.0",
        description = "Billing-safe failover gateway for paid AI generation.",
        subcommands = {
            ServeCommand.class,
            ConfigCommand.class,
            JobsCommand.class,
            ReviewCommand.class,
            KeysCommand.class,
            WebhooksCommand.class,
            StaticCommand.class,
            HealthCommand.class,
            FakeProviderCommand.class,
            TrainCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {
    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
