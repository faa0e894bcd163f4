/**
 * The projects the breakpoint tests run (engine-signal-breakpoints, tui-breakpoint-kinds):
 * a commander with one greeter agent, and a router task whose one route has a condition.
 * `MODEL` stands for the scripted server's model (writeProject and runEngine replace it).
 */

/** Mission `hello`: task `greet`, agent `greeter`. */
export const HCL = `
agent "greeter" {
  model = MODEL
  personality = "You write short greetings."
}
mission "hello" {
  commander {
    model = MODEL
  }
  agents = [agents.greeter]
  task "greet" {
    objective = "Write a greeting"
  }
}
`;

/** Mission `route`: task `decide` routes to `publish` when "the draft is good". */
export const ROUTER_HCL = `
mission "route" {
  commander {
    model = MODEL
  }
  task "decide" {
    objective = "Decide"
    router {
      route {
        target = tasks.publish
        condition = "the draft is good"
      }
    }
  }
  task "publish" {
    objective = "Publish"
  }
}
`;
