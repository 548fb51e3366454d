/** @rein/agent: The rein agent loop: asks the model, schedules tool calls (parallel where safe, dependencies honoured), commits results in model order. */
export {}
